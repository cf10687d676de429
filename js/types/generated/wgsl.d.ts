export const DF64_WGSL: string;
export const DF64_QF128_WGSL: string;
