/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Book3S CPU models: the init function of each.  One after the other,
 * init_ppc64_pmu() (book3s-pmu.c) asks them to register; each returns
 * -ENODEV unless it describes the running CPU.
 */
#ifndef _POWERPC_PERF_INTERNAL_H
#define _POWERPC_PERF_INTERNAL_H

int __init init_ppc970_pmu(void);
int __init init_power5_pmu(void);
int __init init_power5p_pmu(void);
int __init init_power6_pmu(void);
int __init init_power7_pmu(void);
int __init init_power8_pmu(void);
int __init init_power9_pmu(void);
int __init init_power10_pmu(void);
int __init init_generic_compat_pmu(void);

#endif /* _POWERPC_PERF_INTERNAL_H */
