.text 0x100
t1: nop
.data 0x2000
d1: .byte 1
.text
t2: halt
.data
d2: .byte 2
