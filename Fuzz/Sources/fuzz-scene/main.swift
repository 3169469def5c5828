import FuzzDriver

runFuzzer(fuzzScene)
