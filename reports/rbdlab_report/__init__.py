"""rbdlab report generator: reads reports/data/*.json, writes reports/*.md and reports/plots/*.svg.

Modules:
  data       load and check the JSON the suite writes (verify gates, bench), derived numbers
  fmt        number formats and Markdown tables (one place, so pages and tests agree)
  plots      matplotlib (Agg, deterministic SVG)
  pages      the Markdown pages
  sysinfo    machine / OS / compiler / git facts for the provenance page
The command line and the atomic write are in reports/generate.py.
"""
