func.func @f() {
  tfrt.return loc(#z)
} loc(#a)
#z = loc("a":1:2)
#a = loc(#a)
