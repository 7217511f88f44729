l: nop
nop
nop
nop
nop
m: nop
.data 0x40
d:
