import { ApiProperty } from '@nestjs/swagger';
import { ArrayMinSize, ArrayUnique, IsArray, IsIn, IsString, Length } from 'class-validator';
import {
  ApiId,
  ApiNullable,
  ApiNullableTimestamp,
  ApiTimestamp,
} from '../../common/openapi.decorators.js';
import { SCOPES } from '../../routes/scopes.js';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'GitHub Actions', minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  name!: string;

  @ApiProperty({ enum: SCOPES, isArray: true, example: ['builds:create', 'results:submit'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(SCOPES, { each: true, message: `each scope must be one of ${SCOPES.join(', ')}` })
  scopes!: string[];
}

export class ApiKeyResponse {
  @ApiId()
  id!: string;

  @ApiProperty({ example: 'GitHub Actions' })
  name!: string;

  @ApiProperty({ enum: SCOPES, isArray: true })
  scopes!: string[];

  @ApiProperty({
    description: 'First characters of the key, for telling keys apart',
    example: 'svc_live_3f9a1c2e',
  })
  prefix!: string;

  @ApiNullableTimestamp()
  last_used_at!: string | null;

  @ApiTimestamp()
  created_at!: string;
}

export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiNullable(String, {
    description:
      'The key itself. Shown only in this response; store it in your secrets manager. Null ' +
      'when the response is an idempotent replay (`Idempotent-Replayed: true`): only the ' +
      'key’s hash is stored.',
    example: 'svc_live_3f9a1c2e…',
  })
  key!: string | null;
}
