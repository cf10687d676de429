declare const _default: {
    f32: string;
    f64: string;
    kind: string;
};
export default _default;
