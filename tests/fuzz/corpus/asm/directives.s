.equ X, 3
l: rhm ub=X, rows=2, addr=d, stride=N, segs=2, seglen=4, segstride=8
act acc=0, ub=1, rows=1, params=2, zp=-3, relu, pool=2
.align 16
.data 0x4000
d: .byte 1, 2
.half 3
.word -4
.space 3, 1
.incbin "four.bin", 1
.npy "w.npy"
end:
