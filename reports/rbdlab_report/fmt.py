"""Number formats and Markdown helpers. Every number on a page goes through one of these."""

NA = "–"          # no data for this cell
NOT_RUN = "not run"


def eps(x):
    """An error in units of eps: one decimal ('3.1')."""
    return f"{x:.1f}"


def digits(x):
    return f"{x:.1f}"


def ns(x):
    """A time in ns: 3 significant figures below 100, whole ns above."""
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def ratio(x):
    return f"{x:.2f}x"


def slope(x):
    return f"{x:.2f}"


def pct(fraction):
    return f"{100 * fraction:.1f}%"


def sci(x, sig=2):
    """A magnitude in compact scientific notation: 5517.4 -> '5.5e3', 0.00012 -> '1.2e-4'."""
    mantissa, exponent = f"{x:.{sig - 1}e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def count(x):
    """An operation count: integer when it is one."""
    return f"{x:.0f}" if float(x).is_integer() else f"{x:g}"


def coef(c):
    return f"{c:.0f}" if float(c).is_integer() else f"{c:g}"


def poly(coefficients, var="n"):
    """[c0, c1, c2] -> 'c2n^2 + c1n + c0' (zero terms dropped)."""
    terms = []
    for k in range(len(coefficients) - 1, -1, -1):
        c = coefficients[k]
        if c == 0:
            continue
        mag = abs(c)
        if k == 0:
            body = coef(mag)
        else:
            body = ("" if mag == 1 else coef(mag)) + (var if k == 1 else f"{var}^{k}")
        terms.append(("-" if c < 0 else "+", body))
    if not terms:
        return "0"
    s = ("-" if terms[0][0] == "-" else "") + terms[0][1]
    for sign, body in terms[1:]:
        s += f" {sign} {body}"
    return s


def ops_formula(m, a):
    """Featherstone's style: (93n - 69)m + (81n - 66)a."""
    return f"({poly(m)})m + ({poly(a)})a"


def yesno(b):
    return "yes" if b else "**no**"


def cell(x):
    return str(x).replace("|", "\\|").replace("\n", " ")


def table(headers, rows, right=()):
    """A Markdown table padded to align in a plain-text viewer. `right`: indices of
    right-aligned (numeric) columns."""
    rows = [[cell(c) for c in r] for r in rows]
    headers = [cell(h) for h in headers]
    widths = [max([len(headers[i])] + [len(r[i]) for r in rows] + [3]) for i in range(len(headers))]

    def line(cells):
        out = []
        for i, c in enumerate(cells):
            out.append(c.rjust(widths[i]) if i in right else c.ljust(widths[i]))
        return "| " + " | ".join(out) + " |"

    sep = "|" + "|".join(("-" * (widths[i] + 1) + ":") if i in right else "-" * (widths[i] + 2)
                         for i in range(len(headers))) + "|"
    return "\n".join([line(headers), sep] + [line(r) for r in rows])
