// SPDX-License-Identifier: GPL-2.0
/*
 * Book3S PMU framework: sysfs helpers shared by the CPU models.
 *
 * power_events_sysfs_show() prints an events/ entry of a model
 * ("event=0x<code>", the syntax perf parses against format/event), and
 * caps/pmu_name names the model (ISA 2.07+ models).  The attribute groups
 * themselves belong to the models (power_pmu.attr_groups).
 *
 * No locking: the model is fixed at boot.
 */
#include <linux/device.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>
#include "book3s.h"

ssize_t power_events_sysfs_show(struct device *dev,
				struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *pmu_attr =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sprintf(page, "event=0x%02llx\n", pmu_attr->id);
}

static ssize_t pmu_name_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	if (!book3s_ppmu)
		return 0;
	/* no newline: the ABI of 6.1's powerpc caps/pmu_name */
	return scnprintf(buf, PAGE_SIZE, "%s", book3s_ppmu->name);
}
static DEVICE_ATTR_RO(pmu_name);

static struct attribute *book3s_caps_attrs[] = {
	&dev_attr_pmu_name.attr,
	NULL
};

static const struct attribute_group book3s_caps_group = {
	.name = "caps",
	.attrs = book3s_caps_attrs,
};

const struct attribute_group *book3s_caps_groups[] = {
	&book3s_caps_group,
	NULL
};
