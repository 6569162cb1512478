// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * read_bhrb(): one entry of the Branch History Rolling Buffer (ISA 2.07+).
 *
 * mfbhrbe takes the entry number as an immediate, so every entry needs
 * its own instruction: one switch case per entry, which the compiler
 * turns into a jump table.  The ISA allows entries 0..1023; the CPUs we
 * drive (POWER8/9/10) have 32 and the framework never asks beyond
 * ppmu->bhrb_nr, so other numbers read as 0, like an empty entry.
 *
 * Context: PMU interrupt (NMI-like), on the CPU whose BHRB is read (the
 * buffer is per hardware thread); no locks, no memory accesses.
 */
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/perf_event.h>
#include <asm/ppc-opcode.h>

/*
 * Old assemblers lack the mnemonic: emit the instruction word, built by
 * the compiler (@entry must be a constant after inlining, for the "i"
 * constraint).  Its target is fixed to r3, bound to the output.
 */
static __always_inline unsigned long mfbhrbe(const unsigned int entry)
{
	register unsigned long val asm("r3");

	asm volatile(".long %1" : "=r" (val)
		     : "i" (PPC_RAW_MFBHRBE(R3, entry)));
	return val;
}

unsigned long read_bhrb(int n)
{
	switch (n) {
	case 0:
		return mfbhrbe(0);
	case 1:
		return mfbhrbe(1);
	case 2:
		return mfbhrbe(2);
	case 3:
		return mfbhrbe(3);
	case 4:
		return mfbhrbe(4);
	case 5:
		return mfbhrbe(5);
	case 6:
		return mfbhrbe(6);
	case 7:
		return mfbhrbe(7);
	case 8:
		return mfbhrbe(8);
	case 9:
		return mfbhrbe(9);
	case 10:
		return mfbhrbe(10);
	case 11:
		return mfbhrbe(11);
	case 12:
		return mfbhrbe(12);
	case 13:
		return mfbhrbe(13);
	case 14:
		return mfbhrbe(14);
	case 15:
		return mfbhrbe(15);
	case 16:
		return mfbhrbe(16);
	case 17:
		return mfbhrbe(17);
	case 18:
		return mfbhrbe(18);
	case 19:
		return mfbhrbe(19);
	case 20:
		return mfbhrbe(20);
	case 21:
		return mfbhrbe(21);
	case 22:
		return mfbhrbe(22);
	case 23:
		return mfbhrbe(23);
	case 24:
		return mfbhrbe(24);
	case 25:
		return mfbhrbe(25);
	case 26:
		return mfbhrbe(26);
	case 27:
		return mfbhrbe(27);
	case 28:
		return mfbhrbe(28);
	case 29:
		return mfbhrbe(29);
	case 30:
		return mfbhrbe(30);
	case 31:
		return mfbhrbe(31);
	}
	return 0;
}
