import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { SIGN_IN_METHODS, type SignInMethod } from '../entities/console-session.entity.js';

export class SignInDto {
  @ApiProperty({
    description: 'The operator token (ADMIN_TOKEN)',
    format: 'password',
    minLength: 1,
    maxLength: 1024,
  })
  @IsString()
  @Length(1, 1024)
  token!: string;
}

export class SessionResponse {
  @ApiProperty({ enum: SIGN_IN_METHODS, description: 'How the operator signed in' })
  method!: SignInMethod;

  @ApiProperty({
    example: 'operator',
    description: "Who signed in: `operator` for the token, the provider's `sub` for OIDC",
  })
  subject!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'email',
    example: 'ada@example.com',
    description: "The provider's email of who signed in (OIDC); null for the operator token",
  })
  email!: string | null;

  @ApiProperty({ format: 'date-time', description: 'When the session ends' })
  expires_at!: string;

  @ApiProperty({
    description:
      'Send it as `X-CSRF-Token` on every internal-API call that changes something (POST, PUT, PATCH, DELETE) made with the session cookie',
  })
  csrf_token!: string;
}

export class SignInOptionsResponse {
  @ApiProperty({
    enum: SIGN_IN_METHODS,
    description:
      'How the console signs in: `token` (the operator token form) or `oidc` (only through the provider; the token form is refused)',
  })
  method!: SignInMethod;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Example SSO',
    description: 'The provider the sign-in button names (OIDC); null for the token',
  })
  provider!: string | null;
}
