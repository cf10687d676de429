export function judgeRoutines(known: any, set: any, chosen: any, at: any, px: any, times: any): any[];
export function judgeVecRoutines(known: any, set: any, chosen: any, out: any, times: any): any[];
