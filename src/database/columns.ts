import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  JoinColumn,
  ManyToOne,
  type ObjectType,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/*
 * The column kinds the tables share, one decorator each, so that an entity reads as its list
 * of fields (STYLE.md "Data": uuid keys, `timestamptz` times, an `xxx_id` column beside each
 * relation). Every time here is `timestamptz(3)`: the API speaks milliseconds.
 */

/** A uuid column: an id of another row (`nullable` when the reference is optional). */
export const Uuid = (options: { nullable?: boolean } = {}): PropertyDecorator =>
  Column({ type: 'uuid', ...options });

/** A bounded string: `varchar(length)`. */
export const Varchar = (
  length: number,
  options: { nullable?: boolean; select?: boolean; default?: string } = {},
): PropertyDecorator => Column({ type: 'varchar', length, ...options });

/** Text of any length that may be absent. */
export const OptionalText = (): PropertyDecorator => Column({ type: 'text', nullable: true });

/** A yes/no with its value for a new row. */
export const Flag = (initially: boolean): PropertyDecorator =>
  Column({ type: 'boolean', default: initially });

/** A count that starts at 0. */
export const Counter = (): PropertyDecorator => Column({ type: 'integer', default: 0 });

/** A moment; `nullable` for one that may not have happened yet. */
export const Timestamp = (options: { nullable?: boolean } = {}): PropertyDecorator =>
  Column({ type: 'timestamptz', precision: 3, ...options });

/**
 * The relation beside an `xxx_id` column: `column` names it, and deleting the row it points
 * at deletes this one (`CASCADE`) or only forgets the reference (`SET NULL`).
 */
export function References<T>(
  target: () => ObjectType<T>,
  column: string,
  onDelete: 'CASCADE' | 'SET NULL' = 'CASCADE',
): PropertyDecorator {
  const relation = ManyToOne(target, { onDelete });
  const join = JoinColumn({ name: column });
  return (prototype, property) => {
    relation(prototype, property);
    join(prototype, property);
  };
}

/** When the row was inserted, set by the database. */
export const CreatedAt = (): PropertyDecorator =>
  CreateDateColumn({ type: 'timestamptz', precision: 3 });

/** When the row was last saved, set on every save. */
export const UpdatedAt = (): PropertyDecorator =>
  UpdateDateColumn({ type: 'timestamptz', precision: 3 });

/** When a soft-deleted row was deleted; TypeORM's finders leave such rows out. */
export const DeletedAt = (): PropertyDecorator =>
  DeleteDateColumn({ type: 'timestamptz', precision: 3 });

/** What most rows have: a random uuid and when it was created. */
export abstract class Row {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @CreatedAt() createdAt!: Date;
}

/** A row that is changed after it is created: when it last was. */
export abstract class ChangingRow extends Row {
  @UpdatedAt() updatedAt!: Date;
}

/** A row an organization owns; every query on it names the organization (STYLE.md). */
export abstract class TenantRow extends Row {
  @Uuid() organizationId!: string;
}

/** A row an organization owns that is changed after it is created. */
export abstract class ChangingTenantRow extends ChangingRow {
  @Uuid() organizationId!: string;
}
