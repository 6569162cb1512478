// SPDX-License-Identifier: GPL-2.0
/*
 * perf_fuzz: the pseudo-random generator.  splitmix64: one 64-bit state, so a
 * run is reproduced from one number; every worker and round derives its own
 * state with fuzz_mix().
 */
#include "fuzz.h"

uint64_t fuzz_mix(uint64_t a, uint64_t b)
{
	uint64_t z = a ^ (b * 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void fuzz_rng_seed(struct fuzz_rng *r, uint64_t seed)
{
	r->s = seed;
}

uint64_t fuzz_rand(struct fuzz_rng *r)
{
	uint64_t z;

	r->s += 0x9e3779b97f4a7c15ULL;
	z = r->s;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t fuzz_below(struct fuzz_rng *r, uint64_t n)
{
	return n ? fuzz_rand(r) % n : 0;
}

bool fuzz_chance(struct fuzz_rng *r, unsigned int percent)
{
	return fuzz_below(r, 100) < percent;
}
