// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The QUIC KUnit test module: every suite in this directory is linked in.
 */

#include <linux/module.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for the QUIC protocol");
MODULE_LICENSE("GPL");
