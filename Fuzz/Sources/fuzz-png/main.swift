import FuzzDriver

runFuzzer(fuzzPNG)
