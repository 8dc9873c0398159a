export declare function demoTemplates(): Array<Record<string, any>>;
export declare function demoChannels(): Array<{ platform_id: number; title: string; number: string }>;
