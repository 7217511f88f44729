.equ X, 3
l: rhm ub=X, rows=3, addr=d, stride=N, segs=2, seglen=4, segstride=8
halt
.data 0x4000
d: 