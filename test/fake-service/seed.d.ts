/* eslint-disable @typescript-eslint/no-explicit-any -- the fake service's templates are free-form JSON */
export declare function demoTemplates(): Array<Record<string, any>>;
export declare function demoChannels(): Array<{
	platform_id: number;
	title: string;
	number: string;
}>;
export declare function appointmentConfirmation(): Record<string, any>;
export declare function sandboxTemplates(): Record<number, Array<Record<string, any>>>;
