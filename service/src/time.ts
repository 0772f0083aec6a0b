export function isoAt(ms: number): string {
	return new Date(ms).toISOString();
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
