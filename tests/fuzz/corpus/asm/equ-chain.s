.equ A, B+1
.equ B, C*2
.equ C, 3
.equ D, E
.equ E, D
.equ F, 3<<62
halt
