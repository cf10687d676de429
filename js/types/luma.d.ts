export namespace df64 {
    export let name: string;
    export { DF64_GLSL as vs };
    export { DF64_GLSL as fs };
    export let uniformTypes: {};
    export let defaultUniforms: {};
    export function getUniforms(): {};
}
export namespace df64rte {
    let name_1: string;
    export { name_1 as name };
    export let dependencies: {
        name: string;
        vs: string;
        fs: string;
        uniformTypes: {};
        defaultUniforms: {};
        getUniforms: () => {};
    }[];
    export let vs: string;
    export namespace uniformTypes_1 {
        let modelHigh: string;
        let modelLow: string;
        let viewRotation: string;
    }
    export { uniformTypes_1 as uniformTypes };
    export namespace defaultUniforms_1 {
        let modelHigh_1: number[];
        export { modelHigh_1 as modelHigh };
        let modelLow_1: number[];
        export { modelLow_1 as modelLow };
        let viewRotation_1: number[];
        export { viewRotation_1 as viewRotation };
    }
    export { defaultUniforms_1 as defaultUniforms };
    export function getUniforms_1(props: any): {
        modelHigh?: undefined;
        modelLow?: undefined;
        viewRotation?: undefined;
    } | {
        modelHigh: number[];
        modelLow: any[];
        viewRotation: any[];
    };
    export { getUniforms_1 as getUniforms };
}
import { DF64_GLSL } from './generated/glsl-df64.js';
