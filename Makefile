# rbdlab: every verb sets itself up on a fresh Debian 12 machine (make deps runs first).
#   make verify   install, build, run the gates and write reports/data/*.json  (the test command)
#   make report   verify + bench + generate reports/*.md and plots (the main job)
#   make build    configure and compile only
#   make gate     compare the fresh data with reports/baselines/ (op counts exactly, accuracy budgets, digits)
#   make baseline accept the current data as the new baselines (commit the diff)
#   make deps     install the Debian packages the suite needs (idempotent)
#   make clean    remove the build tree
BUILD ?= build
JOBS ?= $(shell nproc)
DEBIAN_PACKAGES = cmake ninja-build g++ ccache libeigen3-dev libboost-dev libmpfr-dev \
                  catch2 nlohmann-json3-dev python3 python3-matplotlib \
                  pkg-config liburdfdom-dev libbenchmark-dev libmujoco-dev

.PHONY: deps build verify bench report gate baseline clean

deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	else echo "make deps: all Debian packages present"; fi

$(BUILD)/build.ninja: CMakeLists.txt
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

verify: build
	cd $(BUILD) && ctest --output-on-failure --no-tests=error --timeout 1500

# Benchmarks: a failed run leaves the last good bench.json in place (its output goes to
# reports/data/failed/). QUICK=1 is a smoke run (n = 7 and 30, one repetition).
BENCH_JSON = reports/data/bench.json
bench: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS) --target rbdlab_bench
	@mkdir -p reports/data/failed
	@rm -f $(BENCH_JSON).tmp
	@if $(BUILD)/bench/rbdlab_bench $(if $(filter 1 true yes,$(QUICK)),--quick) \
	      --benchmark_out=$(BENCH_JSON).tmp --benchmark_out_format=json; then \
	  mv -f $(BENCH_JSON).tmp $(BENCH_JSON) && echo "make bench: wrote $(BENCH_JSON)"; \
	else rc=$$?; mv -f $(BENCH_JSON).tmp reports/data/failed/bench.json 2>/dev/null; \
	  echo "make bench: rbdlab_bench failed (exit $$rc); $(BENCH_JSON) left as it was" \
	       "(this run's output, if any: reports/data/failed/bench.json)"; exit $$rc; fi

report: verify bench
	PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m unittest reports/test_generate.py
	/usr/bin/python3 reports/generate.py --data reports/data --out reports

gate: deps
	/usr/bin/python3 -m unittest tools/test_gate.py
	/usr/bin/python3 tools/gate.py check

baseline: deps
	/usr/bin/python3 tools/gate.py baseline

clean:
	rm -rf $(BUILD)
