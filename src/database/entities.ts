/** Every TypeORM entity of the service; the app and the migration CLI share this list. */
export const ENTITIES: Array<new () => object> = [];
