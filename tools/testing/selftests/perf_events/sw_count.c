// SPDX-License-Identifier: GPL-2.0
/*
 * sw_count.c - counting with the software PMU (PERF_TYPE_SOFTWARE 0..11)
 * against workloads the test controls.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perfev.h"

TEST(page_faults_at_least_pages_touched)
{
	__u64 count;
	int fd;

	fd = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_count(fd, &count));
	EXPECT_GE(count, 64ULL);
	EXPECT_LT(count, 64ULL + 1000);
	close(fd);
}

TEST_HARNESS_MAIN
