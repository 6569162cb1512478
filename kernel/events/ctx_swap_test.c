// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of which contexts are twins (ctx_swap.c): clones of one root
 * at one generation, the root itself while it has not changed, never a
 * pinned context, never one that changed since the fork; and the root
 * reference a clone holds.
 *
 * Locking: private contexts that no task uses; their locks are taken only
 * where the functions under test assert them.
 */
#include <kunit/test.h>
#include <linux/sched.h>

#include "internal.h"

struct twins {
	struct perf_event_context *root, *a, *b;
};

static struct perf_event_context *new_ctx(struct kunit *test)
{
	struct perf_event_context *ctx = perf_ctx_alloc(current);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	return ctx;
}

static void clone_of(struct perf_event_context *child, struct perf_event_context *parent)
{
	mutex_lock(&parent->mutex);
	perf_ctx_mark_clone(child, parent);
	mutex_unlock(&parent->mutex);
}

static void change(struct perf_event_context *ctx)
{
	raw_spin_lock_irq(&ctx->lock);
	perf_ctx_changed(ctx);
	raw_spin_unlock_irq(&ctx->lock);
}

static int twins_init(struct kunit *test)
{
	struct twins *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->root = new_ctx(test);
	t->root->generation = 3;
	t->a = new_ctx(test);
	t->b = new_ctx(test);
	clone_of(t->a, t->root);
	clone_of(t->b, t->root);
	test->priv = t;
	return 0;
}

static void twins_exit(struct kunit *test)
{
	struct twins *t = test->priv;

	perf_ctx_put(t->a);
	perf_ctx_put(t->b);
	perf_ctx_put(t->root);
}

static void test_clones_of_one_root_are_twins(struct kunit *test)
{
	struct twins *t = test->priv;

	KUNIT_EXPECT_PTR_EQ(test, t->a->parent_ctx, t->root);
	KUNIT_EXPECT_EQ(test, t->a->parent_gen, 3ULL);
	KUNIT_EXPECT_TRUE(test, perf_ctx_equivalent(t->a, t->b));
	KUNIT_EXPECT_TRUE(test, perf_ctx_equivalent(t->b, t->a));
	/* the root too, while it has not changed */
	KUNIT_EXPECT_TRUE(test, perf_ctx_equivalent(t->root, t->a));
	KUNIT_EXPECT_TRUE(test, perf_ctx_equivalent(t->a, t->root));
	/* each clone holds a reference on its root */
	KUNIT_EXPECT_EQ(test, refcount_read(&t->root->refcount), 3);
}

static void test_clone_of_a_clone_names_the_root(struct kunit *test)
{
	struct twins *t = test->priv;
	struct perf_event_context *c = new_ctx(test);

	clone_of(c, t->a);
	KUNIT_EXPECT_PTR_EQ(test, c->parent_ctx, t->root);
	KUNIT_EXPECT_TRUE(test, perf_ctx_equivalent(c, t->b));
	KUNIT_EXPECT_TRUE(test, perf_ctx_equivalent(c, t->root));
	perf_ctx_put(c);	/* drops its reference on the root too */
	KUNIT_EXPECT_EQ(test, refcount_read(&t->root->refcount), 3);
}

static void test_a_changed_context_is_no_twin(struct kunit *test)
{
	struct twins *t = test->priv;

	change(t->a);
	KUNIT_EXPECT_NULL(test, t->a->parent_ctx);
	KUNIT_EXPECT_EQ(test, refcount_read(&t->root->refcount), 2);
	KUNIT_EXPECT_FALSE(test, perf_ctx_equivalent(t->a, t->b));
	KUNIT_EXPECT_FALSE(test, perf_ctx_equivalent(t->b, t->a));
	KUNIT_EXPECT_TRUE(test, perf_ctx_equivalent(t->b, t->root));
	/* a changed root: its older clones are twins of each other only */
	clone_of(t->a, t->root);
	change(t->root);
	KUNIT_EXPECT_EQ(test, t->root->generation, 4ULL);
	KUNIT_EXPECT_FALSE(test, perf_ctx_equivalent(t->root, t->b));
	KUNIT_EXPECT_FALSE(test, perf_ctx_equivalent(t->b, t->root));
	KUNIT_EXPECT_TRUE(test, perf_ctx_equivalent(t->a, t->b));
}

static void test_generations_must_match(struct kunit *test)
{
	struct twins *t = test->priv;
	struct perf_event_context *late = new_ctx(test);

	t->root->generation++;	/* an event came and went since a and b */
	clone_of(late, t->root);
	KUNIT_EXPECT_TRUE(test, perf_ctx_equivalent(late, t->root));
	KUNIT_EXPECT_FALSE(test, perf_ctx_equivalent(late, t->a));
	KUNIT_EXPECT_FALSE(test, perf_ctx_equivalent(t->a, late));
	perf_ctx_put(late);
}

static void test_pinned_context_is_no_twin(struct kunit *test)
{
	struct twins *t = test->priv;

	t->b->pin_count++;
	KUNIT_EXPECT_FALSE(test, perf_ctx_equivalent(t->a, t->b));
	KUNIT_EXPECT_FALSE(test, perf_ctx_equivalent(t->b, t->root));
	t->b->pin_count--;
	t->root->pin_count++;
	KUNIT_EXPECT_FALSE(test, perf_ctx_equivalent(t->a, t->root));
	KUNIT_EXPECT_TRUE(test, perf_ctx_equivalent(t->a, t->b));
	t->root->pin_count--;
}

static void test_unrelated_contexts_are_no_twins(struct kunit *test)
{
	struct twins *t = test->priv;
	struct perf_event_context *other = new_ctx(test);

	KUNIT_EXPECT_FALSE(test, perf_ctx_equivalent(other, t->root));
	KUNIT_EXPECT_FALSE(test, perf_ctx_equivalent(t->root, other));
	KUNIT_EXPECT_FALSE(test, perf_ctx_equivalent(other, t->a));
	perf_ctx_put(other);
}

static struct kunit_case ctx_swap_cases[] = {
	KUNIT_CASE(test_clones_of_one_root_are_twins),
	KUNIT_CASE(test_clone_of_a_clone_names_the_root),
	KUNIT_CASE(test_a_changed_context_is_no_twin),
	KUNIT_CASE(test_generations_must_match),
	KUNIT_CASE(test_pinned_context_is_no_twin),
	KUNIT_CASE(test_unrelated_contexts_are_no_twins),
	{}
};

static struct kunit_suite ctx_swap_suite = {
	.name		= "perf_ctx_swap",
	.init		= twins_init,
	.exit		= twins_exit,
	.test_cases	= ctx_swap_cases,
};

kunit_test_suite(ctx_swap_suite);

MODULE_LICENSE("GPL");
