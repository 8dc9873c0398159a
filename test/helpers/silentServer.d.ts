export declare function startSilentServer(): Promise<{
	url: string;
	connections: () => number;
	givenUp: () => number;
	close: () => Promise<void>;
}>;
