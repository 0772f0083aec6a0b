/**
 * A token bucket holding at least this much holds a whole token: refills are sums of small products, and a bucket
 * left a few units in the last place short of 1 would otherwise wait a time too small for a clock to move. The
 * request budget and the retry share count tokens with it.
 * @internal
 */
export const WHOLE_TOKEN = 1 - 1e-9;
