import FuzzDriver

runFuzzer(fuzzJSON)
