export declare function startSilentServer(): Promise<{
	url: string;
	connections: () => number;
	close: () => Promise<void>;
}>;
