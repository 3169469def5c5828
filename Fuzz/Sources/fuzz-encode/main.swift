import FuzzDriver

runFuzzer(fuzzEncode)
