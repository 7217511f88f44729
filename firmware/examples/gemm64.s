; SPDX-License-Identifier: Apache-2.0
; Tiled int8 GEMM for the default 16x16 core: C[64x64] = requant(A[64x64] * B[64x64]).
; A, B and C are row-major int8. `params` is the activation parameter block
; (docs/isa.md): per output lane an int32 bias, int32 multiplier and a shift.
; Each of the 4 column tiles of C accumulates 4 K tiles; weight loads run up to
; three tiles ahead of the multiplies so the weight FIFO is never empty.

.equ M, 64              ; rows of A and C
.equ K, 64              ; columns of A, rows of B
.equ NC, 64             ; columns of B and C
.equ T, 16              ; tile edge: this program is written for N = 16

; unified-buffer layout (rows of N bytes)
.equ UB_A, 0            ; A as 4 K tiles of M rows: rows t*M .. t*M+M-1
.equ UB_P, 4*M          ; parameter block (9 rows)
.equ UB_C, UB_P + 16    ; C as 4 column tiles of M rows

.text
        rhm  ub=UB_P, rows=9, addr=params, stride=T
        rhm  ub=UB_A+0*M, rows=M, addr=a+0*T, stride=K
        rhm  ub=UB_A+1*M, rows=M, addr=a+1*T, stride=K
        rhm  ub=UB_A+2*M, rows=M, addr=a+2*T, stride=K
        rhm  ub=UB_A+3*M, rows=M, addr=a+3*T, stride=K

; column tile 0 (weights B[t*T.., 0..T-1])
        rw   addr=b + 0*T*NC + 0*T, stride=NC
        rw   addr=b + 1*T*NC + 0*T, stride=NC
        rw   addr=b + 2*T*NC + 0*T, stride=NC
        mmc  ub=UB_A+0*M, rows=M, acc=0*M, switch
        rw   addr=b + 3*T*NC + 0*T, stride=NC
        mmc  ub=UB_A+1*M, rows=M, acc=0*M, switch, accumulate
        rw   addr=b + 0*T*NC + 1*T, stride=NC
        mmc  ub=UB_A+2*M, rows=M, acc=0*M, switch, accumulate
        rw   addr=b + 1*T*NC + 1*T, stride=NC
        mmc  ub=UB_A+3*M, rows=M, acc=0*M, switch, accumulate
; column tile 1
        rw   addr=b + 2*T*NC + 1*T, stride=NC
        mmc  ub=UB_A+0*M, rows=M, acc=1*M, switch
        rw   addr=b + 3*T*NC + 1*T, stride=NC
        mmc  ub=UB_A+1*M, rows=M, acc=1*M, switch, accumulate
        rw   addr=b + 0*T*NC + 2*T, stride=NC
        mmc  ub=UB_A+2*M, rows=M, acc=1*M, switch, accumulate
        rw   addr=b + 1*T*NC + 2*T, stride=NC
        mmc  ub=UB_A+3*M, rows=M, acc=1*M, switch, accumulate
; column tile 2
        rw   addr=b + 2*T*NC + 2*T, stride=NC
        mmc  ub=UB_A+0*M, rows=M, acc=2*M, switch
        rw   addr=b + 3*T*NC + 2*T, stride=NC
        mmc  ub=UB_A+1*M, rows=M, acc=2*M, switch, accumulate
        rw   addr=b + 0*T*NC + 3*T, stride=NC
        mmc  ub=UB_A+2*M, rows=M, acc=2*M, switch, accumulate
        rw   addr=b + 1*T*NC + 3*T, stride=NC
        mmc  ub=UB_A+3*M, rows=M, acc=2*M, switch, accumulate
; column tile 3
        rw   addr=b + 2*T*NC + 3*T, stride=NC
        mmc  ub=UB_A+0*M, rows=M, acc=3*M, switch
        rw   addr=b + 3*T*NC + 3*T, stride=NC
        mmc  ub=UB_A+1*M, rows=M, acc=3*M, switch, accumulate
        mmc  ub=UB_A+2*M, rows=M, acc=3*M, switch, accumulate
        mmc  ub=UB_A+3*M, rows=M, acc=3*M, switch, accumulate

; requantize and write back, one column tile at a time
        act  acc=0*M, ub=UB_C+0*M, rows=M, params=UB_P
        act  acc=1*M, ub=UB_C+1*M, rows=M, params=UB_P
        act  acc=2*M, ub=UB_C+2*M, rows=M, params=UB_P
        act  acc=3*M, ub=UB_C+3*M, rows=M, params=UB_P
        whm  ub=UB_C+0*M, rows=M, addr=c+0*T, stride=NC
        whm  ub=UB_C+1*M, rows=M, addr=c+1*T, stride=NC
        whm  ub=UB_C+2*M, rows=M, addr=c+2*T, stride=NC
        whm  ub=UB_C+3*M, rows=M, addr=c+3*T, stride=NC
        halt

.data
a:      .space M*K              ; input, row-major int8
b:      .space K*NC             ; weights, row-major int8
c:      .space M*NC             ; output, row-major int8
; default parameters: bias 0, multiplier 2^30, shift 40 (C = round(A*B / 1024))
params: .word 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        .word 1<<30, 1<<30, 1<<30, 1<<30, 1<<30, 1<<30, 1<<30, 1<<30
        .word 1<<30, 1<<30, 1<<30, 1<<30, 1<<30, 1<<30, 1<<30, 1<<30
        .byte 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40
