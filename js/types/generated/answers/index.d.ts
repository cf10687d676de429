/** @type {Record<string, Record<string, () => Promise<{ default: { f32: string, f64: string, kind: string } }>>>} */
export const ANSWER_MODULES: Record<string, Record<string, () => Promise<{
    default: {
        f32: string;
        f64: string;
        kind: string;
    };
}>>>;
