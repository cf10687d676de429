/**
 * A MapLibre custom layer that draws `options.positions` (longitude, latitude, altitude
 * triples, doubles) as points, lines or triangles within MapLibre's own projection at every
 * zoom, in the mercator and globe projections. It checks the routines it calls on the map's
 * context when added (`checkAsync`, vertex stage, shared by the layers of one context) and
 * draws nothing until that passes; where the check fails (or `maplibreUniforms` refuses a
 * frame's arguments) it draws nothing, sets `message`, and says it once on the console.
 * @param {Df64LayerOptions} options
 * @returns {Df64Layer}
 */
export function df64Layer(options: Df64LayerOptions): Df64Layer;
export type Df64LayerOptions = {
    /**
     * the layer's id in the map's style
     */
    id: string;
    /**
     * longitude, latitude (degrees), altitude (metres) triples
     */
    positions: ArrayLike<number>;
    /**
     * how vertices join ('points')
     */
    mode?: "points" | "lines" | "line-strip" | "triangles";
    /**
     * RGBA in [0, 1]: one colour, or one per vertex
     */
    colors?: ArrayLike<number>;
    /**
     * a point's size in pixels (6)
     */
    pointSize?: number;
    /**
     * the df64 library the layer checks and draws with (`DF64_GLSL`)
     */
    glsl?: string;
    /**
     * called once the check ends
     */
    onCheck?: (verdict: import("../check/results.js").CheckResult) => void;
};
/**
 * a MapLibre custom layer (`map.addLayer(layer)`)
 */
export type Df64Layer = {
    id: string;
    type: "custom";
    renderingMode: "2d" | "3d";
    onAdd: (map: any, gl: WebGL2RenderingContext) => void;
    render: (gl: WebGL2RenderingContext, args: any) => void;
    onRemove: (map: any, gl: WebGL2RenderingContext) => void;
    /**
     * replaces the vertices
     */
    setData: (positions: ArrayLike<number>, colors?: ArrayLike<number>) => void;
    /**
     * the check's result, once it ended
     */
    verdict: import("../check/results.js").CheckResult | null;
    /**
     * why the layer draws nothing, or null while it draws
     */
    message: string | null;
};
