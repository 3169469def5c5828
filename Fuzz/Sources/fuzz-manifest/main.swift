import FuzzDriver

runFuzzer(fuzzManifest)
