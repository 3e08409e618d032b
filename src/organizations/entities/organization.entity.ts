import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

export const PLANS = ['basic', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

@Entity('organization')
export class Organization {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'enum', enum: PLANS, enumName: 'organization_plan' })
  plan!: Plan;

  /** Anchor of the monthly billing period (its day of month, in UTC). */
  @Column({ type: 'timestamptz', precision: 3 })
  subscriptionStartedAt!: Date;

  /** A custom monthly limit agreed with sales; null = the plan's. */
  @Column({ type: 'integer', nullable: true })
  monthlyCallLimit!: number | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
