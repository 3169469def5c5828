# glass-gpu: `make demo` renders the demo scenes into out/, `make test` runs the tests,
# `make fuzz` fuzzes the parsers, `make sanitize` runs the tests under ASan and UBSan.
# All install the Debian packages they need when missing (scripts/ensure-deps.sh).

SWIFT ?= swift
SOURCES = Sources Tests Plugins Package.swift Fuzz/Sources Examples/SnapshotTests/Package.swift \
	Examples/SnapshotTests/Tests Examples/AppleExamples
# Seconds of fuzzing per target (make fuzz FUZZ_SECONDS=1800), and which targets.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= fuzz-png fuzz-encode fuzz-json fuzz-manifest fuzz-scene

.PHONY: all deps test-deps build release test test-softpipe fuzz sanitize lint format demo bench assets docs-images glass-look clean \
	snapshots-record example layout-pictures

all: build

deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Builds everything (the CLI too: the end-to-end tests run it), checks the
# formatting, then runs every suite. GPU suites run on Mesa llvmpipe; where no
# EGL display can be had they are skipped with the reason printed.
#
# The suites run in an optimised build (-c release, with -enable-testing for the
# tests' @testable imports) in a scratch folder of its own, .build-test, so that
# it neither rebuilds nor is rebuilt by `make demo`'s release build. Most of the
# suite is CPU rendering, which a debug build runs about 15 times slower: on the
# 2-core machine the suites took 180 s in a debug build and 12 s optimised, for
# 45 s more of building from nothing. `make sanitize` runs the same suites
# optimised with ASan and UBSan; a plain `swift test` runs them in a debug build.
TEST_BUILD = -c release -Xswiftc -enable-testing --scratch-path .build-test
test-deps:
	@scripts/ensure-deps.sh --test

test: test-deps
	$(SWIFT) build --build-tests $(TEST_BUILD)
	$(SWIFT) format lint --strict -r $(SOURCES)
	$(SWIFT) test --skip-build $(TEST_BUILD)

# The GPU suites a second time on Mesa's other software driver, softpipe (OpenGL
# ES 3.1, GALLIUM_DRIVER=softpipe), to catch what one driver forgives and another,
# or a real GPU's, does not (texels read before they are written, mirrored
# filtering at texel centres: both found this way). GPUDriverTests checks that
# softpipe is the driver in use. The suites chosen are those whose names say GPU
# or parity, the primitives' conformance, the extension's accuracy and the
# effects; GlassCellTests/gpu() is left out: it checks how a pass is cut into
# cells, which the driver does not change (llvmpipe runs it in `make test`), and
# alone took 346 s of softpipe's 506 s run serially. So is SceneRenderingTests'
# GPU-against-CPU parity of the demo scenes: the same comparison on textures
# poisoned with NaN (UnwrittenTexelTests) runs here and is the stronger check
# (20 s of 190 serially); and the extension's accuracy runs every third case
# (ExtensionAccuracyTests.gpuCases). Uses `make test`'s build.
SOFTPIPE_FILTER = (?i)gpu|parity|UnwrittenTexel|PrimitiveConformance|ExtensionAccuracy|EffectTests
test-softpipe: deps
	$(SWIFT) build --build-tests $(TEST_BUILD)
	GALLIUM_DRIVER=softpipe GLASS_GPU_REQUIRE_GPU=1 $(SWIFT) test --skip-build $(TEST_BUILD) \
		--filter '$(SOFTPIPE_FILTER)' --skip 'GlassCellTests/gpu\(\)|SceneRenderingTests/parity\(name:\)'

# The example package (Examples/SnapshotTests) runs in `make test` as a test target
# of this package (GlassSnapshotExampleTests, whose path is the example's Tests
# folder): the same test sources and references, built once with everything
# else, at no extra build cost. Built on its own, in its own .build, it resolves
# and compiles GLESGlass, its C modules and swift-snapshot-testing a second time:
# 37 s measured from nothing on this 2-core machine, plus a second run of its
# tests, which the 15-minute budget of .ci/run does not need to pay; `make example`
# does it, to check that the example builds as a user's package would.
example: deps
	cd Examples/SnapshotTests && $(SWIFT) test

# Re-records every committed reference PNG of the snapshot tests (the example's
# __Snapshots__) from the CPU backend, then runs them again, which must pass.
# Recording fails each test by design (swift-snapshot-testing's record mode), so
# the first run's status is ignored; the second run's is not. The goldens of
# `glass-gpu goldens` in CI are re-recorded by the same command with --record all.
snapshots-record: deps
	$(SWIFT) build --build-tests $(TEST_BUILD)
	-SNAPSHOT_TESTING_RECORD=all $(SWIFT) test --skip-build $(TEST_BUILD) --filter GlassSnapshotExampleTests > /dev/null 2>&1
	$(SWIFT) test --skip-build $(TEST_BUILD) --filter GlassSnapshotExampleTests

# Builds the libFuzzer targets (Fuzz/Sources) with ASan and UBSan in the
# instrumented build make sanitize shares (.build-asan), replays
# every committed crash input (Fuzz/regressions), fuzzes each target for
# FUZZ_SECONDS, and prints executions, corpus size and any crash, leak or
# disagreement (inputs in out/fuzz/TARGET/crashes). Exit 1 on any finding.
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/fuzz.sh $(FUZZ_TARGETS)

# Builds everything optimised with ASan (Swift and C) and UBSan (C) in .build-asan
# (scripts/instrumented-build.sh, the build make fuzz shares) and runs every test
# suite under them (scripts/sanitize.sh says what is checked and why).
sanitize: deps
	scripts/sanitize.sh

lint:
	$(SWIFT) format lint --strict -r $(SOURCES)

format:
	$(SWIFT) format format -i -r $(SOURCES)

demo: release
	@scripts/demo.sh

# The numbers quoted in the README.
bench: release
	.build/release/glass-gpu-bench extend
	.build/release/glass-gpu-bench process
	.build/release/glass-gpu-bench scene Assets/scenes/landmarks.json
	.build/release/glass-gpu-bench glass-scaling
	.build/release/glass-gpu-bench fluid
	.build/release/glass-gpu-bench text
	.build/release/glass-gpu-bench layout
	.build/release/glass-gpu-bench hostile
	.build/release/glass-gpu-bench encode
	.build/release/glass-gpu-bench batch
	.build/release/glass-gpu-bench batch --format jpeg --loop-jobs 20
	.build/release/glass-gpu-bench batch --memory

# Regenerates the demo photos and icons from their procedural descriptions.
assets: release
	.build/release/glass-gpu-bench generate Assets/landscape.png --width 1280 --height 720
	.build/release/glass-gpu-bench generate Assets/flowers.png --kind flowers --width 1280 --height 853
	.build/release/glass-gpu-bench icons Assets/icons --size 96

# The README's pictures (blend, union and hello: the GPU renders at half size; morph.png
# is an animated PNG of the pencil/eraser transition there and back).
docs-images: release
	.build/release/glass-gpu-bench generate /tmp/glass-gpu-readme.png --width 960 --height 540
	.build/release/glass-gpu extend /tmp/glass-gpu-readme.png -o docs/images/extend.png --leading 240 --trailing 180 --sigma 18 --compression 12
	scripts/demo.sh
	.build/release/glass-gpu-bench contact-sheet docs/images/blend.png out/blend-gpu.png --columns 1 --cell-width 480 --cell-height 240 --gap 0
	.build/release/glass-gpu-bench contact-sheet docs/images/union.png out/union-gpu.png --columns 1 --cell-width 480 --cell-height 240 --gap 0
	.build/release/glass-gpu-bench contact-sheet docs/images/hello.png out/hello-gpu.png --columns 1 --cell-width 640 --cell-height 360 --gap 0
	cp out/morph-filmstrip.png docs/images/morph-filmstrip.png
	.build/release/glass-gpu animate Assets/scenes/morph.json --format apng --scale 1 --fps 30 --round-trip --hold 0.6 --compression 12 -o docs/images/morph.png
	rm -rf out/glass-looks && .build/release/glass-gpu batch Assets/scenes/glass-looks.json -o out/glass-looks --scale 1 --environments light,dark,tinted,dark+tinted,increaseContrast,dark+increaseContrast,reduceTransparency,showBorders
	cd out/glass-looks && ../../.build/release/glass-gpu-bench contact-sheet ../../docs/images/glass-looks.png glass-looks.light.png glass-looks.dark.png glass-looks.tinted.png glass-looks.dark+tinted.png glass-looks.increaseContrast.png glass-looks.dark+increaseContrast.png glass-looks.reduceTransparency.png glass-looks.showBorders.png --columns 4 --cell-width 400 --cell-height 300 --gap 8
	rm -rf out/reduce-motion && .build/release/glass-gpu animate Assets/scenes/reduce-motion.json -o out/reduce-motion/default --backend cpu --scale 1 --fps 30 --quiet && .build/release/glass-gpu animate Assets/scenes/reduce-motion.json -o out/reduce-motion/reduced --backend cpu --scale 1 --fps 30 --quiet --environment accessibilityReduceMotion=true
	cd out/reduce-motion && ../../.build/release/glass-gpu-bench contact-sheet ../../docs/images/reduce-motion.png $$(for i in 00 03 06 09 12 15 18 21; do echo default/frame-00$$i.png reduced/frame-00$$i.png; done) --columns 2 --cell-width 360 --cell-height 80 --gap 4
	.build/release/glass-gpu-bench contact-sheet docs/images/contact-sheet.png out/landmarks-gpu.png out/badges-gpu.png out/capsules-gpu.png out/material-gpu.png out/concentric-gpu.png out/signin-gpu.png --columns 3 --cell-width 480 --cell-height 300 --gap 12

# docs/layout.md's pictures of the layout rules (docs/layout/*.json) and the
# README's pictures of Apple's layout examples (Assets/scenes/layout-*.json).
layout-pictures: release
	scripts/layout-pictures.sh

# The four cases of the glass reference rendered with the default optics, beside
# the reference picture (before | after | reference): out/glass-look/compare.png,
# and the README's smaller copy. Needs python3-pil (tooling only).
glass-look: release
	@python3 -c 'import PIL' 2>/dev/null || apt-get install -y python3-pil >/dev/null 2>&1 || { echo "glass-look needs Pillow: apt-get install -y python3-pil"; exit 1; }
	scripts/glass-look.py
	scripts/glass-look.py ../shared/reference/glass-side-by-side.png docs/images/glass-look.jpg --width 400

clean:
	rm -rf .build .build-test .build-asan out
