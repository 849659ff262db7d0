export declare const root: string
export declare function sourcesHash(): string
export declare function isCurrent(stampFile: string): boolean
