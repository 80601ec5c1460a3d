// SPDX-License-Identifier: Apache-2.0
// DSH paper §IV-C: Theorem 1 (eq. 7, DSH) and Theorem 2 (eq. 20, SIH).
// Paper defaults: alpha = 1/16, B = 65536, eta = 228, N_p = 32, N_q = 7,
// N = 2, M = 16, R = 16, phi = 0.
//   DSH: B_s = 65536 - 32*228   = 58240; alpha*B_s - eta = 3640 - 228 = 3412
//   SIH: B_s = 65536 - 32*7*228 = 14464; alpha*B_s       = 904
//   case split (from eq. 13): R <= (1 + alpha*N)/(alpha*M) + 1 = (1 + 2/16)/(16/16) + 1 = 2.125
//   case 1 denominator: [1 + alpha(N+M)](R-1) = (1 + 18/16)(R-1) = 2.125
//   case 2 denominator: (1 + alpha*N)[(1 + alpha*M)(R-1) - alpha*N] = 1.125 [2(R-1) - 0.125]
#include "helpers.h"

using namespace dsh;

namespace {
constexpr double kEps = 1e-9;
}

TEST(Theory, ModelShared) {
  AbsorptionModel m;
  EXPECT_DOUBLE_EQ(model_shared(m, Scheme::DSH), 58240.0);
  EXPECT_DOUBLE_EQ(model_shared(m, Scheme::SIH), 14464.0);
  m.private_per_queue = 12;        // minus 32*7*12 = 2688: the Config defaults' B_s
  EXPECT_DOUBLE_EQ(model_shared(m, Scheme::DSH), 55552.0);
  EXPECT_DOUBLE_EQ(model_shared(m, Scheme::SIH), 11776.0);
  EXPECT_DOUBLE_EQ(model_shared(m, Scheme::DSH), double(Config{}.shared_cells()));
}

// R = 16 > 2.125: case 2, denominator 1.125 * (30 - 0.125) = 33.609375 (= 2151/64)
//   DSH d = 3412 / 33.609375 = 218368/2151 ~ 101.519;  M*R*d = 256 d ~ 25988.94 cells
TEST(Theory, DshDefaultBurst) {
  AbsorptionModel m;
  EXPECT_NEAR(max_pause_free_duration(m, Scheme::DSH), 218368.0 / 2151.0, kEps);
  EXPECT_NEAR(max_pause_free_burst(m, Scheme::DSH), 256.0 * 218368.0 / 2151.0, kEps);
  EXPECT_NEAR(max_pause_free_burst(m, Scheme::DSH), 25988.94, 0.01);
}

//   SIH d = 904 / 33.609375 = 57856/2151 ~ 26.897;  M*R*d ~ 6885.70 cells
TEST(Theory, SihDefaultBurst) {
  AbsorptionModel m;
  EXPECT_NEAR(max_pause_free_duration(m, Scheme::SIH), 57856.0 / 2151.0, kEps);
  EXPECT_NEAR(max_pause_free_burst(m, Scheme::SIH), 6885.70, 0.01);
}

// Same denominator: ratio = 3412/904 ~ 3.774 (the paper's "over 4x" is from simulation).
TEST(Theory, DshAbsorbsMoreThanThreeAndAHalfTimesSih) {
  AbsorptionModel m;
  const double r = max_pause_free_burst(m, Scheme::DSH) / max_pause_free_burst(m, Scheme::SIH);
  EXPECT_NEAR(r, 3412.0 / 904.0, kEps);
  EXPECT_GT(r, 3.5);
}

// R = 1.5 <= 2.125: case 1, denominator 2.125 * 0.5 = 1.0625
//   DSH d = 3412/1.0625 = 54592/17 ~ 3211.29, burst = 16*1.5*d = 1310208/17 ~ 77071.06
//   SIH d = 904/1.0625  = 14464/17 ~ 850.82,  burst = 347136/17 ~ 20419.76
TEST(Theory, CaseOneForSmallLoad) {
  AbsorptionModel m;
  m.load = 1.5;
  EXPECT_NEAR(max_pause_free_duration(m, Scheme::DSH), 54592.0 / 17.0, kEps);
  EXPECT_NEAR(max_pause_free_burst(m, Scheme::DSH), 1310208.0 / 17.0, 1e-6);
  EXPECT_NEAR(max_pause_free_duration(m, Scheme::SIH), 14464.0 / 17.0, kEps);
  EXPECT_NEAR(max_pause_free_burst(m, Scheme::SIH), 347136.0 / 17.0, 1e-6);
}

// Case boundary from eq. (13): case 1 iff alpha*M*(R-1) <= 1 + alpha*N, i.e.
// R <= 1.125/1 + 1 = 2.125 at the defaults (the paper prints 1 - alpha*N).
// alpha*B_s - eta = 3640 - 228 = 3412.
//   R = 2    (case 1): 3412 / ((1 + 18/16) * 1)             = 3412 * 8 / 17
//   R = 2.25 (case 2): 3412 / (1.125 * (2 * 1.25 - 0.125)) = 3412 / 2.671875
//   R = 2.125: both cases give 3412 / 2.390625 (the formula is continuous)
TEST(Theory, CaseSplitBoundary) {
  AbsorptionModel m;
  m.load = 2;
  EXPECT_NEAR(max_pause_free_duration(m, Scheme::DSH), 3412.0 * 8 / 17, kEps);
  m.load = 2.25;
  EXPECT_NEAR(max_pause_free_duration(m, Scheme::DSH), 3412.0 / 2.671875, kEps);
  m.load = 2.125;
  EXPECT_NEAR(max_pause_free_duration(m, Scheme::DSH), 3412.0 / 2.390625, kEps);
  m.load = 2.125 + 1e-9;
  EXPECT_NEAR(max_pause_free_duration(m, Scheme::DSH), 3412.0 / 2.390625, 1e-3);
}

// eta = 2000: DSH B_s = 65536 - 64000 = 1536, 1536/16 - 2000 < 0; SIH B_s < 0.
TEST(Theory, NoBurstWhenPoolTooSmall) {
  AbsorptionModel m;
  m.eta = 2000;
  EXPECT_EQ(max_pause_free_duration(m, Scheme::DSH), 0.0);
  EXPECT_EQ(max_pause_free_burst(m, Scheme::DSH), 0.0);
  EXPECT_EQ(max_pause_free_duration(m, Scheme::SIH), 0.0);
  EXPECT_EQ(max_pause_free_burst(m, Scheme::SIH), 0.0);
}

// Remark after Theorem 2: DSH does not depend on N_q, SIH does.
// N_q = 8: SIH B_s = 65536 - 32*8*228 = 7168, alpha*B_s = 448: burst = 256*448/33.609375 ~ 3412.38
TEST(Theory, DshIndependentOfQueueCount) {
  AbsorptionModel m;
  const double dsh7 = max_pause_free_burst(m, Scheme::DSH);
  m.n_queues = 8;
  EXPECT_DOUBLE_EQ(max_pause_free_burst(m, Scheme::DSH), dsh7);
  EXPECT_NEAR(max_pause_free_burst(m, Scheme::SIH), 256.0 * 448.0 / 33.609375, kEps);
}

// theory.h: with phi > 0, B_s loses N_p*N_q*phi and the burst gains M*R/(R-1)*phi.
// phi = 12: DSH alpha*B_s - eta = 55552/16 - 228 = 3244; burst = 256*3244/33.609375 + 256/15*12
TEST(Theory, PrivateBufferExtension) {
  AbsorptionModel m;
  m.private_per_queue = 12;
  EXPECT_NEAR(max_pause_free_burst(m, Scheme::DSH), 256.0 * 3244.0 / 33.609375 + 256.0 / 15.0 * 12.0, 1e-6);
}
