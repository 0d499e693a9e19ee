/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The compiled formats/pelt.bpf.c, linked into the binary so that
 * formats/peltcap.c opens it from memory (bpf_object__open_mem()) and the
 * installed program needs no side file.  PELT_BPF_OBJ is its path, given
 * by the Makefile.
 */
	.section .rodata
	.balign 8
	.global cfsr_pelt_bpf_obj
	.global cfsr_pelt_bpf_obj_end
cfsr_pelt_bpf_obj:
	.incbin PELT_BPF_OBJ
cfsr_pelt_bpf_obj_end:
	.byte 0

	.section .note.GNU-stack,"",@progbits
