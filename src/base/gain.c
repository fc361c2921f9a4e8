/* The shared arithmetic behind expected gains; see gain.h for the model. */
#include <math.h>
#include "base/gain.h"

static double
encoding(int mts)
{
	if (mts <= 5000)
		return 8.0 / 10.0;	/* Gen1, Gen2 */
	if (mts <= 32000)
		return 128.0 / 130.0;	/* Gen3 to Gen5 */
	return 242.0 / 256.0;		/* Gen6+ FLIT mode */
}

double
pd_pcie_raw_gbs(int mts, int width)
{
	if (mts <= 0 || width <= 0)
		return 0;
	return mts / 1000.0 * width * encoding(mts) / 8.0;
}

double
pd_pcie_tlp_eff(int mps)
{
	if (mps <= 0)
		return 0;
	return (double)mps / (mps + PD_TLP_OVERHEAD);
}

double
pd_pcie_ceiling_gbs(int mts, int width, int mps)
{
	return pd_pcie_raw_gbs(mts, width) * pd_pcie_tlp_eff(mps) *
	    (1.0 - PD_LINK_OVERHEAD);
}

double
pd_pcie_payload_gbs(int mts, int width, int mps)
{
	return pd_pcie_ceiling_gbs(mts, width, mps) * (1.0 - PD_HEADER_SHARE);
}

double
pd_eth_goodput_gbits(double link_gbits, int mtu)
{
	if (mtu <= 52)
		return 0;
	return link_gbits * (mtu - 52) / (mtu + 38);
}

double
pd_amdahl(double f)
{
	if (f >= 1.0)
		return INFINITY;
	return f <= 0 ? 1.0 : 1.0 / (1.0 - f);
}

int
pd_gain_tenths(double ratio)
{
	return (int)lround((ratio - 1.0) * 1000.0);
}

const char *
pd_pcie_speed_name(int mts)
{
	switch (mts) {
	case 2500: return "2.5GT/s";
	case 5000: return "5GT/s";
	case 8000: return "8GT/s";
	case 16000: return "16GT/s";
	case 32000: return "32GT/s";
	case 64000: return "64GT/s";
	case 128000: return "128GT/s";
	default: return "unknown";
	}
}

int
pd_pcie_gen(int mts)
{
	static const int rates[] = { 2500, 5000, 8000, 16000, 32000, 64000,
		128000 };
	for (int i = 0; i < 7; i++)
		if (rates[i] == mts)
			return i + 1;
	return 0;
}
