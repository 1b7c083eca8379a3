#a = loc(#b)
#b = loc(callsite(#c at "x":1:1))
#c = loc(fused[#a])
"f"() : () -> () loc(#a)
