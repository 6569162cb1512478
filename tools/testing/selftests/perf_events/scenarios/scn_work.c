// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of the client scenarios: scn_work [-p PROCS] [-t THREADS] [-n ITERS]
 *
 * Forks PROCS children (4); each starts THREADS pthreads (4) and every thread
 * runs scn_spin(ITERS): a loop of exactly SCN_SPIN_INSNS user instructions
 * per iteration, one of them a taken-or-not conditional branch.  So a client
 * that counts the whole tree (inherited events) sees at least
 * PROCS * THREADS * ITERS * SCN_SPIN_INSNS instructions and
 * PROCS * THREADS * ITERS branches.  Prints that lower bound and exits 0 when
 * every child and thread finished.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCN_SPIN_INSNS	2

/* Decrement and branch back while non-zero: two instructions an iteration. */
__attribute__((noinline)) void scn_spin(unsigned long n)
{
	if (!n)
		return;
#if defined(__x86_64__)
	asm volatile("1:\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#elif defined(__powerpc64__)
	asm volatile("1:\taddic. %0,%0,-1\n\tbne 1b" : "+b"(n) : : "cr0", "xer");
#else
#error "scn_spin: no counted loop for this architecture"
#endif
}

static unsigned long iters = 1000000;

static void *spin_thread(void *arg)
{
	scn_spin(iters);
	return NULL;
}

static int child(int threads)
{
	pthread_t tid[64];
	int i, started = 0, err = 0;

	for (i = 0; i < threads; i++) {
		if (pthread_create(&tid[i], NULL, spin_thread, NULL)) {
			err = 1;
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	return err;
}

int main(int argc, char **argv)
{
	int procs = 4, threads = 4, opt, i, status, err = 0;

	while ((opt = getopt(argc, argv, "p:t:n:")) != -1) {
		switch (opt) {
		case 'p':
			procs = atoi(optarg);
			break;
		case 't':
			threads = atoi(optarg);
			break;
		case 'n':
			iters = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-p procs] [-t threads] [-n iters]\n", argv[0]);
			return 2;
		}
	}
	if (procs < 1 || threads < 1 || threads > 64 || procs > 64) {
		fprintf(stderr, "scn_work: 1..64 processes and threads\n");
		return 2;
	}
	printf("scn_work: procs=%d threads=%d iters=%lu min_insns=%lu min_branches=%lu\n",
	       procs, threads, iters,
	       (unsigned long)procs * threads * iters * SCN_SPIN_INSNS,
	       (unsigned long)procs * threads * iters);
	fflush(stdout);
	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			err = 1;
			break;
		}
		if (!pid)
			_exit(child(threads));
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			err = 1;
	return err;
}
