/** The render stage's WGSL for a precision (after the compute stage's: its types, c_* and fft_p). */
export function RENDER_WGSL(precision: any): string;
export function renderPipelineOf(device: any, stage: any): any;
/**
 * A render-form plan of n = 2^k points (`batch` rows) on textures of W x H texels, W = 2^ceil(k/2)
 * (the paper's layout), H = batch n / W (at most the device's maxTextureDimension2D).
 */
export function WebGpuRenderFft(device: any, stage: any, n: any, batch: any, precision: any): void;
export class WebGpuRenderFft {
    /**
     * A render-form plan of n = 2^k points (`batch` rows) on textures of W x H texels, W = 2^ceil(k/2)
     * (the paper's layout), H = batch n / W (at most the device's maxTextureDimension2D).
     */
    constructor(device: any, stage: any, n: any, batch: any, precision: any);
    device: any;
    length: any;
    batch: any;
    precision: any;
    radix: number;
    form: string;
    _stage: any;
    _log2: number;
    _radices: number[];
    _words: any;
    _per: number;
    _parts: number;
    _wlog2: number;
    _width: number;
    _height: number;
    _rowBytes: number;
    _render: any;
    _textures: any[][];
    _read: any;
    _twiddles: any;
    _params: any;
    _groups: any[];
    _views: any[][];
    _front: number;
    _exponent: number;
    _growth: number;
    _loaded: boolean;
    _disposed: boolean;
    _owned: any[];
    _upload(x: any): void;
    _execute(direction: any): void;
    _download(): Promise<{
        words: Float32Array<ArrayBuffer>;
        per: number;
        exponent: number;
    }>;
    multiply(): never;
    dispose(): void;
}
