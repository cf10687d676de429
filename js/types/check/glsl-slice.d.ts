export function functionIndex(source: any): any;
export function reachable(index: any, code: any): Set<any>;
export function librarySlice(source: any, code: any): any;
export function uncommented(text: any): any;
export function inlinedSize(source: any, code: any): any;
export function programGroups(source: any, codes: any, groupSize: any): any[];
