#include <gtest/gtest.h>
#include "config.h"
TEST(Config, DefaultIsValid) { dsh::Config c; EXPECT_NO_THROW(c.validate()); }
