; A deliberately broken program: every line below the comment has one mistake.
        rhm  ub=0, rows=4, addr=data, stride=16
        mmc  ub=0, rows=4
        frobnicate ub=1
        act  acc=0, ub=70000, rows=1, params=0
        halt
.data
data:   .byte 1, 2, 300
