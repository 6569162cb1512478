# SPDX-License-Identifier: GPL-2.0
# perf_events clean-room core: build-and-boot testbed.
#
#   make run     build our kernel, boot it in QEMU, demo the real perf tool (ARCH= too)
#   make check   run every test suite in the guest; ends with
#                "N passed, N failed, N skipped"
#   make fuzz    run perf_fuzz in the (debug) guest and judge the console
#   make coverage  line and branch coverage of our code: make check and a
#                10-minute fuzz on a gcov kernel (ARCH=all unless given);
#                COVERAGE=1 on make check or make fuzz covers that run alone
#   make x86-models  our x86 PMU against 6.1's on QEMU's named CPU models:
#                boot lines, sysfs, perf list and perf stat must be identical
#                (X86_MODELS=Skylake-Client,EPYC to choose; make check runs it
#                against 6.1's dumps in testbed/x86-models-6.1 while their KEY
#                matches; X86_MODELS_REFS=update records them anew)
#   make compile-check  build x86_64 with KVM and every x86 perf option
#   make bench   micro-benchmarks, ours against upstream, under QEMU icount
#                (ARCH=all and IMPL=both unless given; ROUNDS=3)
#
# Variables: ARCH=x86_64|ppc64le|all  IMPL=new|upstream  DEBUG=0|1
#            SUITES=perfev,upstream,perftest,papi,powerpc,scenarios  TESTS=attr,groups  TAG=name
#            NOBUILD=1 (reuse the built kernel; with TAG= for parallel runs)
#            fuzz: DEBUG=1 by default, DURATION=10m, SEED, WORKERS, ROUND,
#            REGRESSION=name (a kernel with testbed/regressions/name.patch,
#            a fixed bug put back: the verdict is PASS when the fuzzer finds it;
#            on make check, the suite case that must catch it fails)
#            X86_PMU=arch|none (x86_64 guest with or without the architectural
#            PMU of testbed/qemu; make check boots both)
#            PPC_CPU=power9,power8,power10 (ppc64le CPU models: make check
#            runs every suite on the first, the PMU tests on the others;
#            make run and make fuzz boot the first)
#            PPC_QEMU=testbed|debian (ppc64le guests on testbed/qemu's
#            qemu-system-ppc64, the default, or on Debian's)
ARCH ?= x86_64
IMPL ?= new
DEBUG ?= 0
export ARCH IMPL DEBUG COVERAGE SUITES TESTS TAG NOBUILD ROUNDS SCALE ONLY ICOUNT_SHIFT X86_PMU X86_MODELS PPC_CPU PPC_QEMU X86_MODELS_REFS

.PHONY: all run check fuzz bench coverage deps kernel clean distclean x86-models compile-check

all: check

deps:
	@testbed/deps.sh

run: deps
	@testbed/demo.sh

check: deps
	@testbed/check.sh

fuzz: deps
	@DEBUG=$(if $(filter command line,$(origin DEBUG)),$(DEBUG),1) testbed/fuzz.sh

coverage: deps
	@ARCH=$(if $(filter command line environment,$(origin ARCH)),$(ARCH),all) \
	 testbed/coverage-all.sh

x86-models: deps
	@testbed/x86-models.sh

compile-check: deps
	@testbed/compile-check.sh

bench: deps
	@ARCH=$(if $(filter command line environment,$(origin ARCH)),$(ARCH),all) \
	 IMPL=$(if $(filter command line environment,$(origin IMPL)),$(IMPL),both) \
	 testbed/bench.sh

kernel: deps
	@for a in $(if $(filter all,$(ARCH)),x86_64 ppc64le,$(ARCH)); do \
		testbed/build-kernel.sh $$a $(IMPL) $(DEBUG) || exit 1; done

clean:
	rm -rf build/obj build/guest build/src-* build/stage-* out

distclean:
	rm -rf build out
