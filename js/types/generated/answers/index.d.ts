/** @type {Record<string, Record<string, () => Promise<{ default: string }>>>} */
export const ANSWER_MODULES: Record<string, Record<string, () => Promise<{
    default: string;
}>>>;
