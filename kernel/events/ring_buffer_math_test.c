// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the ring-buffer arithmetic (ring_buffer_math.h): offsets,
 * free space in both directions, copy pieces and wakeup watermarks.
 *
 * Pure arithmetic on local values: no locking, no buffer, no event.
 */
#include <kunit/test.h>

#include "ring_buffer_math.h"

#define AREA	4096UL

static void offset_masks_free_running_positions(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_rb_offset(0, AREA), 0UL);
	KUNIT_EXPECT_EQ(test, perf_rb_offset(AREA - 8, AREA), AREA - 8);
	KUNIT_EXPECT_EQ(test, perf_rb_offset(AREA, AREA), 0UL);
	KUNIT_EXPECT_EQ(test, perf_rb_offset(3 * AREA + 24, AREA), 24UL);
	/* a backward head below 0 */
	KUNIT_EXPECT_EQ(test, perf_rb_offset((u64)-16, AREA), AREA - 16);
}

static void empty_forward_buffer_keeps_one_byte_free(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_rb_room(0, 0, AREA, false), AREA - 1);
	KUNIT_EXPECT_TRUE(test, perf_rb_fits(0, 0, AREA, AREA - 1, false));
	KUNIT_EXPECT_FALSE(test, perf_rb_fits(0, 0, AREA, AREA, false));
	/* the same far along: only head - tail counts */
	KUNIT_EXPECT_EQ(test, perf_rb_room(5 * AREA + 40, 5 * AREA + 40, AREA, false),
			AREA - 1);
}

static void forward_room_shrinks_as_head_runs_ahead(struct kunit *test)
{
	u64 tail = 7 * AREA + 100;

	KUNIT_EXPECT_EQ(test, perf_rb_room(tail + 1000, tail, AREA, false), AREA - 1001);
	KUNIT_EXPECT_EQ(test, perf_rb_room(tail + AREA - 1, tail, AREA, false), 0UL);
	KUNIT_EXPECT_FALSE(test, perf_rb_fits(tail + AREA - 8, tail, AREA, 8, false));
	KUNIT_EXPECT_TRUE(test, perf_rb_fits(tail + AREA - 9, tail, AREA, 8, false));
	/* the reader catches up: all the room is back */
	KUNIT_EXPECT_EQ(test, perf_rb_room(tail + 1000, tail + 1000, AREA, false), AREA - 1);
}

static void bogus_tail_is_taken_modulo_the_size(struct kunit *test)
{
	/* a tail past head, or whole areas behind, never gives more than the area */
	KUNIT_EXPECT_LT(test, perf_rb_room(100, 100 + AREA / 2, AREA, false), AREA);
	KUNIT_EXPECT_EQ(test, perf_rb_room(100, 100 + AREA / 2, AREA, false), AREA / 2 - 1);
	KUNIT_EXPECT_EQ(test, perf_rb_room(10 * AREA + 64, 64, AREA, false), AREA - 1);
}

static void backward_room_counts_downwards(struct kunit *test)
{
	u64 tail = 0, head = (u64)-1000;	/* 1000 bytes written from the top */

	KUNIT_EXPECT_EQ(test, perf_rb_room(0, 0, AREA, true), AREA - 1);
	KUNIT_EXPECT_EQ(test, perf_rb_room(head, tail, AREA, true), AREA - 1001);
	KUNIT_EXPECT_TRUE(test, perf_rb_fits(head, tail, AREA, AREA - 1001, true));
	KUNIT_EXPECT_FALSE(test, perf_rb_fits(head, tail, AREA, AREA - 1000, true));
	/* the forward reading of the same positions would be wrong */
	KUNIT_EXPECT_NE(test, perf_rb_room(head, tail, AREA, false),
			perf_rb_room(head, tail, AREA, true));
}

static void chunk_stops_at_each_boundary(struct kunit *test)
{
	unsigned long page = 1024, done = 0, len = 3000, pieces = 0;
	u64 pos = 2 * AREA + 1000;

	KUNIT_EXPECT_EQ(test, perf_rb_chunk(pos, 10, page), 10UL);
	KUNIT_EXPECT_EQ(test, perf_rb_chunk(pos, len, page), 24UL);
	KUNIT_EXPECT_EQ(test, perf_rb_chunk(pos, AREA, AREA), AREA - 1000);
	/* a whole record in pieces: 24 + 1024 + 1024 + 928 */
	while (done < len) {
		unsigned long n = perf_rb_chunk(pos + done, len - done, page);

		KUNIT_ASSERT_GT(test, n, 0UL);
		done += n;
		pieces++;
	}
	KUNIT_EXPECT_EQ(test, done, len);
	KUNIT_EXPECT_EQ(test, pieces, 4UL);
}

static void watermark_defaults_to_half_and_is_capped(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_rb_watermark(AREA, 0), AREA / 2);
	KUNIT_EXPECT_EQ(test, perf_rb_watermark(AREA, 100), 100UL);
	KUNIT_EXPECT_EQ(test, perf_rb_watermark(AREA, 10 * AREA), AREA);
}

/* Past the mark, not at it (6.1): a mark of 10 records wakes at the 11th. */
static void watermark_passed_in_the_direction_of_writing(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, perf_rb_watermark_reached(1000, 1000 + 99, 100, false));
	KUNIT_EXPECT_FALSE(test, perf_rb_watermark_reached(1000, 1000 + 100, 100, false));
	KUNIT_EXPECT_TRUE(test, perf_rb_watermark_reached(1000, 1000 + 101, 100, false));
	KUNIT_EXPECT_TRUE(test, perf_rb_watermark_reached(1000, 1000 + 5000, 100, false));
	KUNIT_EXPECT_FALSE(test, perf_rb_watermark_reached(0, (u64)-100, 100, true));
	KUNIT_EXPECT_TRUE(test, perf_rb_watermark_reached(0, (u64)-101, 100, true));
}

/* The next mark is one watermark on from the last, not from where head got to. */
static void next_watermark_steps_by_one_mark(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_rb_next_watermark(160, 160, false), 320ULL);
	KUNIT_EXPECT_EQ(test, perf_rb_next_watermark(0, 160, true), (u64)-160);
}

static struct kunit_case perf_rb_math_cases[] = {
	KUNIT_CASE(offset_masks_free_running_positions),
	KUNIT_CASE(empty_forward_buffer_keeps_one_byte_free),
	KUNIT_CASE(forward_room_shrinks_as_head_runs_ahead),
	KUNIT_CASE(bogus_tail_is_taken_modulo_the_size),
	KUNIT_CASE(backward_room_counts_downwards),
	KUNIT_CASE(chunk_stops_at_each_boundary),
	KUNIT_CASE(watermark_defaults_to_half_and_is_capped),
	KUNIT_CASE(watermark_passed_in_the_direction_of_writing),
	KUNIT_CASE(next_watermark_steps_by_one_mark),
	{}
};

static struct kunit_suite perf_rb_math_suite = {
	.name = "perf_ring_buffer_math",
	.test_cases = perf_rb_math_cases,
};

kunit_test_suite(perf_rb_math_suite);

MODULE_LICENSE("GPL");
