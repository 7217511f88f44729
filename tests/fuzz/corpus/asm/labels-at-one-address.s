l: halt
.data 0x0000
d: 