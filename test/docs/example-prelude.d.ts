export declare const client: import("operator-runtime").ResourceClient;
