/** The median of xs (the upper one of an even count), xs left as it is. */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
