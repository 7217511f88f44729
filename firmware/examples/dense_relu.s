; SPDX-License-Identifier: Apache-2.0
; One dense layer for the default 16x16 core:
;   y[16x32] = ReLU(requant(x[16x64] * w[64x32] + bias))   (int8 in, int8 out)
; x, w and y are row-major int8. `params` holds two activation parameter blocks
; (docs/isa.md), one per 16-lane column tile of y: per-channel int32 bias,
; multiplier and shift. The output zero point is ZP; ReLU clamps at it.

.equ B, 16              ; batch rows
.equ K, 64              ; input features
.equ NO, 32             ; output features
.equ T, 16              ; tile edge: this program is written for N = 16
.equ ZP, -128           ; output zero point

.equ UB_X, 0            ; x as 4 K tiles of B rows
.equ UB_P, 4*B          ; 2 parameter blocks of 9 rows
.equ UB_Y, UB_P + 2*9   ; y as 2 column tiles of B rows

.text
        rhm  ub=UB_P, rows=2*9, addr=params, stride=T
        rhm  ub=UB_X+0*B, rows=B, addr=x+0*T, stride=K
        rhm  ub=UB_X+1*B, rows=B, addr=x+1*T, stride=K
        rhm  ub=UB_X+2*B, rows=B, addr=x+2*T, stride=K
        rhm  ub=UB_X+3*B, rows=B, addr=x+3*T, stride=K

        rw   addr=w + 0*T*NO + 0*T, stride=NO   ; tile (k 0, n 0)
        rw   addr=w + 1*T*NO + 0*T, stride=NO
        rw   addr=w + 2*T*NO + 0*T, stride=NO
        mmc  ub=UB_X+0*B, rows=B, acc=0, switch
        rw   addr=w + 3*T*NO + 0*T, stride=NO
        mmc  ub=UB_X+1*B, rows=B, acc=0, switch, accumulate
        rw   addr=w + 0*T*NO + 1*T, stride=NO   ; tile (k 0, n 1)
        mmc  ub=UB_X+2*B, rows=B, acc=0, switch, accumulate
        rw   addr=w + 1*T*NO + 1*T, stride=NO
        mmc  ub=UB_X+3*B, rows=B, acc=0, switch, accumulate
        rw   addr=w + 2*T*NO + 1*T, stride=NO
        mmc  ub=UB_X+0*B, rows=B, acc=B, switch
        rw   addr=w + 3*T*NO + 1*T, stride=NO
        mmc  ub=UB_X+1*B, rows=B, acc=B, switch, accumulate
        mmc  ub=UB_X+2*B, rows=B, acc=B, switch, accumulate
        mmc  ub=UB_X+3*B, rows=B, acc=B, switch, accumulate

        act  acc=0, ub=UB_Y+0*B, rows=B, params=UB_P+0, zp=ZP, relu
        act  acc=B, ub=UB_Y+1*B, rows=B, params=UB_P+9, zp=ZP, relu
        whm  ub=UB_Y+0*B, rows=B, addr=y+0*T, stride=NO
        whm  ub=UB_Y+1*B, rows=B, addr=y+1*T, stride=NO
        halt

.data
x:      .space B*K
w:      .space K*NO
params: .space 2*9*T
y:      .space B*NO
