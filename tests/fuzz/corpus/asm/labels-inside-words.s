w: .space 20
params: .space 12
nop
y: .space 3
